/* global self, URL */
/* The web app's service worker: Web Push only (no caching). It shows what the server sent
   ({ title, body, data }, src/providers/push/web-push.ts) and opens data.url on a click. */
self.addEventListener('push', (event) => {
  const message = event.data ? event.data.json() : {};
  event.waitUntil(
    self.registration.showNotification(message.title || '', {
      body: message.body || '',
      data: message.data || {},
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL(
    (event.notification.data && event.notification.data.url) || '/',
    self.location.origin,
  );
  // Only pages of this site: a push never opens another origin.
  const url = target.origin === self.location.origin ? target.href : self.location.origin + '/';
  event.waitUntil(self.clients.openWindow(url));
});
