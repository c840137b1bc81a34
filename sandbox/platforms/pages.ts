// The sandbox's only HTML: each platform's consent page (choose a demo account, see the scopes, Authorize or
// Deny), the error page a real authorization server shows instead of redirecting (unknown client, unregistered
// redirect URI) and an index of what the sandbox serves. Server-rendered, one inline stylesheet (dark, readable
// on a phone), plain forms, no script, nothing loaded from elsewhere. Everything variable goes through escapeHtml.
import type { AccountChoice } from './demo-accounts.ts';

export const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character]!);

const STYLES = `
*{box-sizing:border-box}
body{margin:0;background:#0b1120;color:#e2e8f0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif}
main{max-width:34rem;margin:0 auto;padding:1rem}
.banner{background:#f59e0b;color:#111827;text-align:center;font-weight:700;padding:.5rem 1rem;margin:0;font-size:1rem}
h1{font-size:1.5rem;margin:1rem 0 .25rem;line-height:1.25}
h2{font-size:1.1rem;margin:0 0 .5rem}
section,fieldset{background:#111827;border:1px solid #1f2937;border-radius:.75rem;padding:1rem;margin:1rem 0}
legend{font-weight:700;padding:0 .25rem}
.muted{color:#94a3b8}
.choice{display:flex;gap:.75rem;align-items:center;padding:.6rem .5rem;border-radius:.5rem;border:1px solid #334155;margin:.5rem 0;cursor:pointer}
.choice:hover{background:#1e293b}
.choice input{width:1.25rem;height:1.25rem;flex:none;accent-color:#818cf8}
.choice img{width:2.5rem;height:2.5rem;border-radius:50%;flex:none}
.choice strong{display:block}
.scopes{list-style:none;padding:0;margin:0}
.scopes li{padding:.4rem 0;border-bottom:1px solid #1f2937}
.scopes li:last-child{border-bottom:0}
.scopes label{display:flex;gap:.6rem;align-items:flex-start;cursor:pointer}
.scopes input{width:1.15rem;height:1.15rem;margin-top:.2rem;flex:none;accent-color:#818cf8}
code{font-size:.85rem;color:#c7d2fe;word-break:break-all}
.actions{display:flex;gap:.75rem;margin-top:1rem}
button{flex:1;border:0;border-radius:.5rem;padding:.8rem 1rem;font-size:1rem;font-weight:600;cursor:pointer;min-height:2.75rem}
.primary{background:#4f46e5;color:#fff}
.secondary{background:#1f2937;color:#e2e8f0;border:1px solid #475569}
button:focus-visible,a:focus-visible,input:focus-visible{outline:3px solid #a5b4fc;outline-offset:2px}
a{color:#a5b4fc}
.error{background:#450a0a;border:1px solid #b91c1c;color:#fecaca;border-radius:.5rem;padding:.75rem;margin:1rem 0}
table{width:100%;border-collapse:collapse;font-size:.95rem}
th,td{text-align:left;padding:.4rem .25rem;border-bottom:1px solid #1f2937;vertical-align:top}
`;

export function layout(platformLabel: string, title: string, content: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)} · Sandbox ${escapeHtml(platformLabel)}</title>
<style>${STYLES}</style>
</head>
<body>
<header><p class="banner">Sandbox ${escapeHtml(platformLabel)} — no real account</p></header>
<main>
${content}
</main>
</body>
</html>`;
}

export interface ConsentScope {
  name: string;
  description: string;
  /** The user may untick it (platforms with granular consent). */
  optional: boolean;
  checked: boolean;
}

export interface ConsentPageInput {
  platformLabel: string;
  /** "Google" for YouTube, otherwise the platform. */
  signInWith: string;
  appName: string;
  /** Where the answer goes, shown so a tester can see which app is asking. */
  redirectOrigin: string;
  requestId: string;
  accounts: readonly (AccountChoice & { avatarUrl: string })[];
  selectedAccount: number;
  scopes: readonly ConsentScope[];
  error?: string;
}

/** Authorize comes first in the form: it is the default button, the one Enter presses. */
export function consentPage(input: ConsentPageInput): string {
  const accountChoices = input.accounts
    .map(
      (account, index) => `<label class="choice">
<input type="radio" name="account" value="${index}"${index === input.selectedAccount ? ' checked' : ''} required>
<img src="${escapeHtml(account.avatarUrl)}" alt="">
<span><strong>${escapeHtml(account.name)}</strong><span class="muted">${escapeHtml(account.detail)} · ${escapeHtml(account.audience)}</span></span>
</label>`,
    )
    .join('\n');
  const anyOptional = input.scopes.some((scope) => scope.optional);
  const scopeItems = input.scopes
    .map((scope) => {
      const text = `<span>${escapeHtml(scope.description)}<br><code>${escapeHtml(scope.name)}</code></span>`;
      if (scope.optional) {
        return `<li><label><input type="checkbox" name="scope" value="${escapeHtml(scope.name)}"${scope.checked ? ' checked' : ''}>${text}</label></li>`;
      }
      // Not optional: still posted, so the server sees the same form whichever scopes are shown.
      return `<li><input type="hidden" name="scope" value="${escapeHtml(scope.name)}">${text}</li>`;
    })
    .join('\n');
  const error = input.error ? `<div class="error" role="alert" id="form-error">${escapeHtml(input.error)}</div>` : '';
  return layout(
    input.platformLabel,
    `Sign in with ${input.signInWith}`,
    `<h1>${escapeHtml(input.appName)} wants to access your ${escapeHtml(input.platformLabel)} account</h1>
<p class="muted">Sign in with ${escapeHtml(input.signInWith)}. You will be sent back to <strong>${escapeHtml(input.redirectOrigin)}</strong>.</p>
${error}
<form method="post"${input.error ? ' aria-describedby="form-error"' : ''}>
<input type="hidden" name="request_id" value="${escapeHtml(input.requestId)}">
<fieldset>
<legend>Choose a demo account</legend>
${accountChoices}
</fieldset>
<section aria-labelledby="scopes-heading">
<h2 id="scopes-heading">${escapeHtml(input.appName)} will be able to</h2>
${anyOptional ? '<p class="muted">Untick anything you do not want to share.</p>' : ''}
<ul class="scopes">
${scopeItems}
</ul>
</section>
<div class="actions">
<button class="primary" type="submit" name="decision" value="allow">Authorize</button>
<button class="secondary" type="submit" name="decision" value="deny" formnovalidate>Deny</button>
</div>
</form>`,
  );
}

/** What a real authorization server shows when it must not redirect (RFC 6749 §4.1.2.1). */
export function errorPage(platformLabel: string, title: string, message: string): string {
  return layout(
    platformLabel,
    title,
    `<h1>${escapeHtml(title)}</h1>
<div class="error" role="alert"><p class="message">${escapeHtml(message)}</p></div>
<p class="muted">This is the ${escapeHtml(platformLabel)} sandbox: nothing here talks to the real service.</p>`,
  );
}

export interface IndexRow {
  platformLabel: string;
  hosts: readonly string[];
  accounts: readonly AccountChoice[];
}

export function indexPage(baseUrl: string, rows: readonly IndexRow[]): string {
  const body = rows
    .map(
      (row) => `<tr><th scope="row">${escapeHtml(row.platformLabel)}</th><td>${row.hosts.map((host) => `<code>${escapeHtml(`${baseUrl}/${host}`)}</code>`).join('<br>')}</td>
<td>${row.accounts.map((account) => `${escapeHtml(account.name)} · ${escapeHtml(account.audience)}`).join('<br>')}</td></tr>`,
    )
    .join('\n');
  return layout(
    'platforms',
    'Platform sandbox',
    `<h1>Platform sandbox</h1>
<p class="muted">A real URL <code>https://&lt;host&gt;&lt;path&gt;</code> is served at <code>${escapeHtml(baseUrl)}/&lt;host&gt;&lt;path&gt;</code>.</p>
<section><table><thead><tr><th scope="col">Platform</th><th scope="col">Hosts</th><th scope="col">Demo accounts</th></tr></thead>
<tbody>${body}</tbody></table></section>`,
  );
}
