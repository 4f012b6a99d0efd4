// Keeps the app's shell (index.html and its hashed scripts and styles) so a tablet that loses the
// server still opens the app and can say so, instead of showing the browser's error page. API
// calls are never answered from the cache: stale orders or bills would be worse than none.
declare const SHELL_FILES: string[];
/** Changes with every build that changes a file: the entry script's content-hashed name. */
declare const SHELL_VERSION: string;

const CACHE = `pos-shell-${SHELL_VERSION}`;
const worker = self as unknown as ServiceWorkerGlobalScope;

worker.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL_FILES))
      .then(() => worker.skipWaiting()),
  );
});

worker.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
      .then(() => worker.clients.claim()),
  );
});

worker.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== worker.location.origin) return;
  if (!url.pathname.startsWith('/app/')) return;
  // Screens are client-side routes: any /app/ page is the shell. Network first, so an update
  // reaches the tablet as soon as the server is back; the cache only when it is not.
  const isPage = event.request.mode === 'navigate';
  event.respondWith(
    fetch(event.request).catch(async () => {
      const cached = await caches.match(isPage ? '/app/' : event.request, { ignoreVary: true });
      return cached ?? Response.error();
    }),
  );
});
