// Before the app starts: the browser's time zone, read by the portal's first event.
try {
  localStorage.setItem("patchbay.time_zone", Intl.DateTimeFormat().resolvedOptions().timeZone);
} catch (error) {
  // Storage refused (private mode): moments show in UTC.
}
