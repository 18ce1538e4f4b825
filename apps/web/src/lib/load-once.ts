/**
 * A module fetched on demand, once per page: `load()` starts (or joins) the fetch, `get()` answers
 * it once here. A failed fetch (a dropped connection, a busy server) is tried again twice, and if it
 * still fails the next `load()` starts afresh, so one bad moment never leaves a control dead.
 */
export function loadOnce<T>(fetchIt: () => Promise<T>, retryDelayMs = 400) {
  let value: T | null = null;
  let pending: Promise<T> | null = null;
  const attempt = async (): Promise<T> => {
    for (let tries = 1; ; tries++) {
      try {
        value = await fetchIt();
        return value;
      } catch (err) {
        if (tries >= 3) throw err;
        await new Promise((r) => setTimeout(r, retryDelayMs * tries));
      }
    }
  };
  return {
    get: (): T | null => value,
    load: (): Promise<T> => {
      pending ??= attempt().catch((err) => {
        pending = null;
        throw err;
      });
      return pending;
    },
  };
}
