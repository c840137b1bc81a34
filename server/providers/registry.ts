// Every platform's provider: each platform's OAuth and profile half composed with its sync here, so neither half
// imports the other. A Record over PlatformName: a platform added to the contract without a provider is a type error.
import type { PlatformName } from '#contract/platforms.ts';
import { instagram } from './instagram.ts';
import { syncInstagram } from './instagram.sync.ts';
import { linkedin } from './linkedin.ts';
import { syncLinkedIn } from './linkedin.sync.ts';
import { patreon } from './patreon.ts';
import { syncPatreon } from './patreon.sync.ts';
import type { Provider } from './provider.ts';
import { tiktok } from './tiktok.ts';
import { syncTikTok } from './tiktok.sync.ts';
import { twitter } from './twitter.ts';
import { syncTwitter } from './twitter.sync.ts';
import { youtubeOAuth } from './youtube/oauth.ts';
import { syncYouTube } from './youtube/sync.ts';

export const providers: Record<PlatformName, Provider> = {
  youtube: { ...youtubeOAuth, sync: syncYouTube },
  instagram: { ...instagram, sync: syncInstagram },
  tiktok: { ...tiktok, sync: syncTikTok },
  twitter: { ...twitter, sync: syncTwitter },
  linkedin: { ...linkedin, sync: syncLinkedIn },
  patreon: { ...patreon, sync: syncPatreon },
};
