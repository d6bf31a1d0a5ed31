// "./auth" of the README examples: where the application gets an API's access token.
export async function getAccessToken(): Promise<string> {
  return process.env.TASKS_TOKEN ?? "";
}
