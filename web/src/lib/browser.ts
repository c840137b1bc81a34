// Leaving the single-page app: full-page navigations and new tabs. Kept in one place so components stay
// declarative and tests can replace these with spies.

/** Full page load of `url` (used for Stripe Checkout, payment links and the hard redirects of the api client). */
export function assignLocation(url: string): void {
  window.location.assign(url);
}

/** Opens `url` in a new tab; falls back to the current tab when a popup blocker refuses. */
export function openInNewTab(url: string): void {
  const opened = window.open(url, '_blank');
  if (opened) {
    opened.opener = null;
  } else {
    window.location.assign(url);
  }
}
