// Connects a demo account the way the product does and returns the access token, for the metrics tests.
import { authorizeUrl, basicAuth, callbackParams, pkcePair, postForm, redirectUriFor } from './test-helpers.ts';
import type { PlatformName, PlatformSandbox } from './platform-sandbox.ts';

const DEFAULT_SCOPES: Record<PlatformName, string> = {
  youtube: 'https://www.googleapis.com/auth/youtube.readonly https://www.googleapis.com/auth/yt-analytics.readonly',
  instagram: 'instagram_business_basic,instagram_business_manage_insights',
  tiktok: 'user.info.basic,user.info.stats,video.list',
  twitter: 'tweet.read users.read offline.access',
  linkedin: 'r_basicprofile r_member_profileAnalytics r_member_postAnalytics',
  patreon: 'identity campaigns campaigns.members',
};

const AUTHORIZE_URLS: Record<PlatformName, string> = {
  youtube: 'https://accounts.google.com/o/oauth2/v2/auth',
  instagram: 'https://www.instagram.com/oauth/authorize',
  tiktok: 'https://www.tiktok.com/v2/auth/authorize/',
  twitter: 'https://x.com/i/oauth2/authorize',
  linkedin: 'https://www.linkedin.com/oauth/v2/authorization',
  patreon: 'https://www.patreon.com/oauth2/authorize',
};

const TOKEN_URLS: Record<PlatformName, string> = {
  youtube: 'https://oauth2.googleapis.com/token',
  instagram: 'https://api.instagram.com/oauth/access_token',
  tiktok: 'https://open.tiktokapis.com/v2/oauth/token/',
  twitter: 'https://api.x.com/2/oauth2/token',
  linkedin: 'https://www.linkedin.com/oauth/v2/accessToken',
  patreon: 'https://www.patreon.com/api/oauth2/token',
};

/** An access token for demo account `account` of `platform` (Instagram: the short-lived token, fine for reads). */
export async function connectAs(sandbox: PlatformSandbox, platform: PlatformName, account = 0, scope = DEFAULT_SCOPES[platform]): Promise<string> {
  const { clientId, clientSecret } = sandbox.credentials[platform];
  const { verifier, challenge } = pkcePair(platform === 'tiktok' ? 'hex' : 'base64url');
  const usesPkce = platform === 'youtube' || platform === 'tiktok' || platform === 'twitter';
  const url = authorizeUrl(sandbox, AUTHORIZE_URLS[platform], {
    response_type: 'code',
    [platform === 'tiktok' ? 'client_key' : 'client_id']: clientId,
    redirect_uri: redirectUriFor(platform),
    state: 'metrics-state',
    scope,
    ...(usesPkce ? { code_challenge: challenge, code_challenge_method: 'S256' } : {}),
  });
  const code = callbackParams((await sandbox.authorize(url, { account })).redirectUrl).get('code')!;
  const fields: Record<string, string> = { grant_type: 'authorization_code', code, redirect_uri: redirectUriFor(platform), ...(usesPkce ? { code_verifier: verifier } : {}) };
  let headers: Record<string, string> = {};
  if (platform === 'twitter' || platform === 'youtube') headers = basicAuth(clientId, clientSecret);
  else if (platform === 'tiktok') Object.assign(fields, { client_key: clientId, client_secret: clientSecret });
  else Object.assign(fields, { client_id: clientId, client_secret: clientSecret });
  const answer = await postForm(sandbox.url(TOKEN_URLS[platform]), fields, headers);
  if (answer.status !== 200) throw new Error(`token exchange failed for ${platform}: ${answer.status} ${answer.text}`);
  return platform === 'instagram' ? (answer.body.data[0].access_token as string) : (answer.body.access_token as string);
}
