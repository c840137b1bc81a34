/** Text made safe to place in HTML (element content or a quoted attribute), for the emails we write by hand. */
export const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character]!);

/** The dark page every hand-written email's HTML part sits in, around its paragraphs (each already HTML). */
export function mailDocument(paragraphs: readonly string[]): string {
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;background:#0f172a;color:#e2e8f0;padding:24px">
${paragraphs.join('\n')}
</body></html>`;
}

/** "Hi Maya," or "Hi," without a first name. */
export const mailGreeting = (name: string) => (name ? `Hi ${name},` : 'Hi,');
