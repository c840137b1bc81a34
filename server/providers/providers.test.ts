// Pure parts of the providers: the registry, the base-URL rewrite, and reading handles and profile URLs.
import { describe, expect, it } from 'vitest';
import { PLATFORM_NAMES } from '#contract/platforms.ts';
import { pkceChallenge } from '../modules/platforms/platforms.service.ts';
import { rewritePlatformUrl } from '../modules/platforms/token-custody.ts';
import { providers } from './registry.ts';
import { DEFAULT_LINKEDIN_VERSION, LINKEDIN_VERSION_PATTERN, previousLinkedinVersion } from './linkedin-version.ts';
import { parseTwitterUsername } from './twitter.ts';
import { parseYouTubeReference, subscribersOf } from './youtube/oauth.ts';

describe('the provider registry', () => {
  it('has one provider per platform, PKCE exactly where the platform supports it', () => {
    expect(Object.keys(providers)).toEqual([...PLATFORM_NAMES]);
    for (const name of PLATFORM_NAMES) expect(providers[name].platform).toBe(name);
    const web = (name: (typeof PLATFORM_NAMES)[number]) => `https://app.example/auth/${name}/callback`;
    const loopback = (name: (typeof PLATFORM_NAMES)[number]) => `http://localhost:5173/auth/${name}/callback`;
    expect(Object.fromEntries(PLATFORM_NAMES.map((name) => [name, providers[name].pkce(web(name))]))).toEqual({
      youtube: 'base64url',
      instagram: null,
      tiktok: null, // a web app at TikTok: PKCE optional, not sent (corrections row 7)
      twitter: 'base64url',
      linkedin: null,
      patreon: null,
    });
    // A desktop-type (loopback) redirect at TikTok must carry a hex challenge (rows 7-8); the others are unchanged.
    expect(Object.fromEntries(PLATFORM_NAMES.map((name) => [name, providers[name].pkce(loopback(name))]))).toMatchObject({ youtube: 'base64url', tiktok: 'hex', twitter: 'base64url' });
    expect(PLATFORM_NAMES.filter((name) => providers[name].revoke)).toEqual(['youtube', 'tiktok', 'twitter']);
    expect(PLATFORM_NAMES.filter((name) => providers[name].lookupPublicProfile)).toEqual(['youtube', 'twitter']);
  });
});

describe('rewritePlatformUrl', () => {
  it('serves https://<host><path>?<query> at <apiUrl>/<host><path>?<query>, and leaves real URLs alone without one', () => {
    expect(rewritePlatformUrl('http://127.0.0.1:41234', 'https://oauth2.googleapis.com/token')).toBe('http://127.0.0.1:41234/oauth2.googleapis.com/token');
    expect(rewritePlatformUrl('http://proxy.local/base', 'https://open.tiktokapis.com/v2/user/info/?fields=a,b')).toBe(
      'http://proxy.local/base/open.tiktokapis.com/v2/user/info/?fields=a,b',
    );
    expect(rewritePlatformUrl(undefined, 'https://api.x.com/2/users/me')).toBe('https://api.x.com/2/users/me');
  });
});

describe('pkceChallenge', () => {
  it('is BASE64URL(SHA256(verifier)) (RFC 7636 appendix B)', () => {
    expect(pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });
  it('is the lower-case hex of SHA256(verifier) for TikTok: the same digest as appendix B, hex-encoded', () => {
    const hex = pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk', 'hex');
    expect(hex).toBe('13d31e961a1ad8ec2f16b10c4c982e0876a878ad6df144566ee1894acb70f9c3');
    expect(Buffer.from(hex, 'hex').toString('base64url')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });
});

describe('parseYouTubeReference', () => {
  it.each([
    ['@mayacreates', { forHandle: '@mayacreates' }],
    ['mayacreates', { forHandle: '@mayacreates' }],
    ['https://www.youtube.com/@mayacreates', { forHandle: '@mayacreates' }],
    ['youtube.com/@mayacreates/videos', { forHandle: '@mayacreates' }],
    ['UCabcdefghijklmnopqrstuA', { id: 'UCabcdefghijklmnopqrstuA' }],
    ['https://www.youtube.com/channel/UCabcdefghijklmnopqrstuA', { id: 'UCabcdefghijklmnopqrstuA' }],
  ])('%s', (input, expected) => {
    expect(parseYouTubeReference(input)).toEqual(expected);
  });

  it('refuses what is neither', () => {
    for (const input of ['', '@a', 'https://evil.example/@x', 'https://www.youtube.com/watch?v=abc', 'has space']) expect(parseYouTubeReference(input)).toBeUndefined();
  });
});

describe('parseTwitterUsername', () => {
  it('reads @name, name and profile URLs on x.com and twitter.com', () => {
    expect(parseTwitterUsername('@creator_1')).toBe('creator_1');
    expect(parseTwitterUsername('creator_1')).toBe('creator_1');
    expect(parseTwitterUsername('https://x.com/creator_1')).toBe('creator_1');
    expect(parseTwitterUsername('https://twitter.com/creator_1?s=20')).toBe('creator_1');
    expect(parseTwitterUsername('https://x.com/a/status/1')).toBe('a');
    expect(parseTwitterUsername('way_too_long_username_here')).toBeUndefined();
    expect(parseTwitterUsername('https://evil.example/creator')).toBeUndefined();
  });
});

describe('previousLinkedinVersion', () => {
  it('steps back one published month, skipping December (LinkedIn publishes none)', () => {
    expect(previousLinkedinVersion('202610')).toBe('202609');
    expect(previousLinkedinVersion('202602')).toBe('202601');
    expect(previousLinkedinVersion('202601')).toBe('202511');
  });
  it('the default is a published month', () => {
    expect(DEFAULT_LINKEDIN_VERSION).toMatch(LINKEDIN_VERSION_PATTERN);
    expect('202612').not.toMatch(LINKEDIN_VERSION_PATTERN);
  });
});

describe('YouTube subscriber count', () => {
  it('is unknown (null), never 0, when absent or hidden and answered as 0', () => {
    expect(subscribersOf(undefined)).toBeNull();
    expect(subscribersOf({})).toBeNull();
    expect(subscribersOf({ hiddenSubscriberCount: true })).toBeNull();
    expect(subscribersOf({ hiddenSubscriberCount: true, subscriberCount: 0 })).toBeNull();
    expect(subscribersOf({ hiddenSubscriberCount: true, subscriberCount: 1520 })).toBe(1520);
    expect(subscribersOf({ hiddenSubscriberCount: false, subscriberCount: 0 })).toBe(0);
  });
});
