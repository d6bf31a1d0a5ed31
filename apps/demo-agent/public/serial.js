// Runs an async refresh one at a time: calls made while it runs fold into one more run afterwards,
// so an older answer never paints over a newer one.
export function serial(task) {
  let running;
  let again = false;
  return function run() {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await task();
        } while (again);
      } finally {
        running = undefined;
      }
    })();
    return running;
  };
}
