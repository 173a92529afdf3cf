/* LiveLocal's service worker (decision 036): shows each Web Push as a notification and opens its page
   when clicked. It caches nothing, so it never serves a stale app. */
self.addEventListener("push", (event) => {
  let notice = { title: "LiveLocal", body: "", path: "/" };
  try {
    notice = { ...notice, ...(event.data ? event.data.json() : {}) };
  } catch {
    notice.body = event.data ? event.data.text() : "";
  }
  event.waitUntil(
    self.registration.showNotification(notice.title, {
      body: notice.body,
      tag: notice.tag,
      icon: "/favicon.svg",
      data: { path: notice.path },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.path ?? "/", self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((clients) => {
      const open = clients.find((client) => client.url === url);
      return open ? open.focus() : self.clients.openWindow(url);
    }),
  );
});
