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

/**
 * Hands a downloaded file to the browser's save flow under `fileName` (exports fetched with the bearer token,
 * which a plain link cannot send).
 */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the object URL after click() returns: release it a little later, not at once.
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Puts `text` on the clipboard; rejects where the browser refuses (no permission, an insecure page). */
export function copyText(text: string): Promise<void> {
  return navigator.clipboard.writeText(text);
}
