// locks.js: create-if-absent for localStorage, which has no transactions.
// Tabs of one origin share its localStorage; a Web Lock (navigator.locks)
// named after the store's prefix makes the read and the write one step
// across them. Without Web Locks (an old browser, a Storage outside a
// page), the read and the write are one synchronous step within this page
// only, and the store says so (exclusive = false).

export async function localStorageCreate(store, key, value) {
  const once = () => {
    if (store.storage.getItem(store.prefix + key) !== null) return false;
    store.storage.setItem(store.prefix + key, String(value));
    return true;
  };
  if (!store.locks?.request) {
    store.exclusive = false;
    return once();
  }
  return store.locks.request(`edgegraph-store:${store.prefix}`, { mode: 'exclusive' }, once);
}

/**
 * A run's hold on one thread of a localStorage store, for as long as the run
 * lasts: a Web Lock named after the thread, taken only if free. The record
 * create above is not enough across tabs on its own: a browser hands one
 * tab's localStorage writes to the others' copies asynchronously, so a tab
 * could read a thread before another tab's running record reaches it. The
 * browser grants Web Locks in one place, so two tabs never run a thread at
 * once. Resolves with the release function, or null when another run holds it.
 */
export function localStorageClaim(store, threadId) {
  if (!store.locks?.request) return Promise.resolve(() => {});
  return new Promise((resolve, reject) => {
    store.locks.request(`edgegraph-thread:${store.prefix}${threadId}`, { ifAvailable: true }, (lock) => {
      if (!lock) return resolve(null);
      return new Promise((release) => resolve(release));
    }).catch(reject);
  });
}
