// The authorization endpoint every platform shares, parameterised by what differs: the client id parameter
// (`client_key` at TikTok), scope separators and names, whether PKCE is required, whether the user may untick
// scopes, and what the redirect back carries. GET validates and shows the consent page; the page's form posts
// back to the same URL, and the answer redirects to the app with a code or an error.
//
// As RFC 6749 §4.1.2.1 requires, an unknown client or an unregistered redirect URI gets an error page and no
// redirect; every later problem (response_type, scope, state, PKCE) is redirected to the app as `error=…`.
import type { AccountChoice, PlatformName } from './demo-accounts.ts';
import { html, readForm, redirect, type Reply, type RouteDefinition, type SandboxRequest } from './http.ts';
import { isRegisteredRedirectUri, isValidCodeChallenge, splitScopes, unknownScopes, type AuthorizationRequest, type PkceEncoding, type PkceMethod } from './oauth-core.ts';
import { consentPage, errorPage, type ConsentScope } from './pages.ts';
import type { PlatformContext } from './platform-module.ts';

/** The name shown on consent pages for the one registered client of each platform. */
export const APP_NAME = 'Analytics Hub';

export interface AuthorizeSpec {
  platform: PlatformName;
  /** "YouTube", "X", … */
  label: string;
  /** "Google" for YouTube. */
  signInWith: string;
  hosts: readonly string[];
  paths: readonly string[];
  clientIdParam: 'client_id' | 'client_key';
  scopeSeparators: RegExp;
  /** Known scope → what the consent page says it allows. */
  scopes: Readonly<Record<string, string>>;
  /** Maps aliases to the name the platform reports back (Google: `email` → `…/auth/userinfo.email`). */
  normalizeScope?: (scope: string) => string;
  /** Used when `scope` is absent; without it a missing scope is an error. */
  defaultScopes?: readonly string[];
  /** A function: the rule depends on the redirect URI (TikTok: desktop-type loopback redirects must send PKCE). */
  pkce: 'required' | 'optional' | ((redirectUri: string) => 'required' | 'optional');
  /** How the S256 challenge encodes the hash; absent: RFC 7636 base64url. */
  pkceEncoding?: PkceEncoding;
  /** X accepts `s256` as twitter-api-v2 sends it. */
  pkceMethodCaseInsensitive?: boolean;
  /** Granular consent: which requested scopes the user may untick. Absent: all or nothing. */
  optionalScope?: (scope: string) => boolean;
  /** Platform-specific parameter checks; a returned error is redirected to the app. */
  validateExtras?: (query: URLSearchParams) => { error: string; description: string } | null;
  /** Adjusts the granted scopes and records facts the token endpoint needs (Google's refresh-token rules). */
  onConsent?: (request: AuthorizationRequest, accountIndex: number, grantedScopes: string[]) => { grantedScopes: string[]; extras: Record<string, unknown> };
  newCode(): string;
  /** Parameters of the success redirect; `code` and `state` are added in the platform's order here. */
  successParams(code: string, request: AuthorizationRequest, grantedScopes: readonly string[]): [string, string][];
  /** Parameters of the redirect when the user denies. */
  denyParams(request: AuthorizationRequest): [string, string][];
  /** Appended to every redirect (Instagram's `#_`). */
  fragment?: string;
  accounts: readonly AccountChoice[];
  avatarUrl(accountIndex: number): string;
}

/** `redirectUri` with `params` appended to its query, and the platform's fragment if it has one. */
export function redirectWith(redirectUri: string, params: readonly [string, string][], fragment?: string): string {
  const url = new URL(redirectUri);
  for (const [name, value] of params) url.searchParams.append(name, value);
  if (fragment) url.hash = fragment;
  return url.href;
}

export function createAuthorizeRoutes(spec: AuthorizeSpec, context: PlatformContext): RouteDefinition[] {
  const registered = context.credentials[spec.platform];

  const errorReply = (title: string, message: string) => html(400, errorPage(spec.label, title, message));

  const redirectError = (redirectUri: string, state: string | null, error: string, description: string): Reply =>
    redirect(redirectWith(redirectUri, [['error', error], ['error_description', description], ...(state ? ([['state', state]] as [string, string][]) : [])], spec.fragment));

  const scopeChoices = (request: AuthorizationRequest, checked: ReadonlySet<string>): ConsentScope[] =>
    request.scopes.map((name) => ({
      name,
      description: spec.scopes[name] ?? name,
      optional: spec.optionalScope?.(name) ?? false,
      checked: checked.has(name),
    }));

  const renderConsent = (status: number, requestId: string, request: AuthorizationRequest, selectedAccount: number, checked: ReadonlySet<string>, error?: string): Reply =>
    html(
      status,
      consentPage({
        platformLabel: spec.label,
        signInWith: spec.signInWith,
        appName: APP_NAME,
        redirectOrigin: new URL(request.redirectUri).host,
        requestId,
        accounts: spec.accounts.map((account, index) => ({ ...account, avatarUrl: spec.avatarUrl(index) })),
        selectedAccount,
        scopes: scopeChoices(request, checked),
        ...(error ? { error } : {}),
      }),
    );

  function show(request: SandboxRequest): Reply {
    const { query } = request;
    const clientId = query.get(spec.clientIdParam);
    if (!clientId) return errorReply('Error 400: invalid_request', `Missing required parameter: ${spec.clientIdParam}.`);
    if (clientId !== registered.clientId) return errorReply('Error 401: invalid_client', `The OAuth client was not found (${spec.clientIdParam} is not registered with the ${spec.label} sandbox).`);
    const redirectUri = query.get('redirect_uri');
    if (!redirectUri) return errorReply('Error 400: invalid_request', 'Missing required parameter: redirect_uri.');
    if (!isRegisteredRedirectUri(spec.platform, redirectUri, context.allowedRedirectUris)) {
      return errorReply(
        'Error 400: redirect_uri_mismatch',
        `The redirect_uri ${redirectUri} is not registered for this client. Registered: http://localhost:<port>/…/auth/${spec.platform}/callback, http://127.0.0.1:<port>/…/auth/${spec.platform}/callback` +
          (context.allowedRedirectUris.length ? ` and ${context.allowedRedirectUris.join(', ')}.` : '.'),
      );
    }

    const state = query.get('state');
    const fail = (error: string, description: string) => redirectError(redirectUri, state, error, description);
    const responseType = query.get('response_type');
    if (!responseType) return fail('invalid_request', 'Missing required parameter: response_type.');
    if (responseType !== 'code') return fail('unsupported_response_type', `Unsupported response_type: ${responseType}. Only "code" is supported.`);
    if (!state) return fail('invalid_request', 'Missing required parameter: state. The sandbox requires state on every authorization request.');

    const rawScope = query.get('scope');
    let scopes: string[];
    if (rawScope === null || rawScope.trim() === '') {
      if (!spec.defaultScopes) return fail('invalid_request', 'Missing required parameter: scope.');
      scopes = [...spec.defaultScopes];
    } else {
      scopes = splitScopes(rawScope, spec.scopeSeparators);
    }
    const unknown = unknownScopes(scopes, spec.scopes);
    if (unknown.length > 0) return fail('invalid_scope', `Unknown scope: ${unknown.join(', ')}.`);
    if (spec.normalizeScope) scopes = [...new Set(scopes.map(spec.normalizeScope))];

    const codeChallenge = query.get('code_challenge');
    const rawMethod = query.get('code_challenge_method');
    let codeChallengeMethod: PkceMethod | undefined;
    if (codeChallenge) {
      const method = rawMethod ?? 'plain'; // RFC 7636 §4.3: plain when absent
      const normalised = spec.pkceMethodCaseInsensitive ? ({ s256: 'S256', plain: 'plain' } as Record<string, PkceMethod>)[method.toLowerCase()] : method;
      if (normalised !== 'S256' && normalised !== 'plain') return fail('invalid_request', `Unsupported code_challenge_method: ${method}. Use S256.`);
      if (!isValidCodeChallenge(codeChallenge, normalised, spec.pkceEncoding)) return fail('invalid_request', 'Invalid code_challenge: expected 43 base64url characters (S256) or 43–128 unreserved characters (plain).');
      codeChallengeMethod = normalised;
    } else if (rawMethod) {
      return fail('invalid_request', 'code_challenge_method was sent without code_challenge.');
    } else if ((typeof spec.pkce === 'function' ? spec.pkce(redirectUri) : spec.pkce) === 'required') {
      return fail('invalid_request', 'Missing required parameter: code_challenge. PKCE is required.');
    }

    const extraError = spec.validateExtras?.(query);
    if (extraError) return fail(extraError.error, extraError.description);

    const authorizationRequest: AuthorizationRequest = {
      platform: spec.platform,
      clientId,
      redirectUri,
      scopes,
      state,
      ...(codeChallenge && codeChallengeMethod ? { codeChallenge, codeChallengeMethod } : {}),
      query: Object.fromEntries(query.entries()),
    };
    const requestId = context.store.createPending(authorizationRequest);
    return renderConsent(200, requestId, authorizationRequest, 0, new Set(scopes));
  }

  async function answer(request: SandboxRequest): Promise<Reply> {
    const form = await readForm(request);
    const requestId = form?.get('request_id');
    const pending = form && requestId ? context.store.peekPending(requestId, spec.platform) : null;
    if (!form || !requestId || !pending) {
      return errorReply('This sign-in request has expired', 'The consent page was already answered or is too old. Start again from the app.');
    }
    const decision = form.get('decision');
    if (decision === 'deny') {
      context.store.takePending(requestId, spec.platform);
      return redirect(redirectWith(pending.redirectUri, [...spec.denyParams(pending), ['state', pending.state]], spec.fragment));
    }
    const submittedScopes = new Set(form.getAll('scope'));
    const accountIndex = Number(form.get('account'));
    if (decision !== 'allow') return renderConsent(400, requestId, pending, 0, submittedScopes, 'Choose Authorize or Deny.');
    if (!Number.isInteger(accountIndex) || accountIndex < 0 || accountIndex >= spec.accounts.length) {
      return renderConsent(400, requestId, pending, 0, submittedScopes, 'Choose one of the demo accounts.');
    }
    // Scopes the user may not untick are granted whatever the form says; optional ones only if ticked.
    let grantedScopes = pending.scopes.filter((scope) => !(spec.optionalScope?.(scope) ?? false) || submittedScopes.has(scope));
    if (grantedScopes.length === 0) return renderConsent(400, requestId, pending, accountIndex, submittedScopes, 'Tick at least one permission, or choose Deny.');

    context.store.takePending(requestId, spec.platform);
    let extras: Record<string, unknown> = {};
    if (spec.onConsent) ({ grantedScopes, extras } = spec.onConsent(pending, accountIndex, grantedScopes));
    const code = spec.newCode();
    context.store.issueCode(code, pending, accountIndex, grantedScopes, extras);
    return redirect(redirectWith(pending.redirectUri, spec.successParams(code, pending, grantedScopes), spec.fragment));
  }

  return spec.hosts.flatMap((host) =>
    spec.paths.flatMap((path): RouteDefinition[] => [
      { platform: spec.platform, hosts: [host], method: 'GET', path, endpoint: 'authorize', handle: show },
      { platform: spec.platform, hosts: [host], method: 'POST', path, endpoint: 'consent', handle: answer },
    ]),
  );
}
