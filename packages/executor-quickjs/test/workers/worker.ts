export default {
  async fetch(): Promise<Response> {
    return new Response("executor-quickjs test worker");
  },
};
