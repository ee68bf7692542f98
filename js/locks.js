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
