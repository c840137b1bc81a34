// Every platform's provider: each platform's OAuth and profile half composed with its sync here, so neither half
// imports the other. LinkedIn and Patreon have no young-post read: we store no posts of theirs (LinkedIn's post
// list needs the restricted r_member_social; Patreon's posts carry no counters). A Record over PlatformName: a platform added to the contract without a provider is a type error.
import type { PlatformName } from '#contract/platforms.ts';
import { instagram } from './instagram.ts';
import { readInstagramCounters, syncInstagram } from './instagram.sync.ts';
import { linkedin } from './linkedin.ts';
import { syncLinkedIn } from './linkedin.sync.ts';
import { patreon } from './patreon.ts';
import { syncPatreon } from './patreon.sync.ts';
import type { Provider } from './provider.ts';
import { tiktok } from './tiktok.ts';
import { readTikTokCounters, syncTikTok } from './tiktok.sync.ts';
import { twitter } from './twitter.ts';
import { readTwitterCounters, syncTwitter, X_READ_AGES_HOURS } from './twitter.sync.ts';
import { youtubeOAuth } from './youtube/oauth.ts';
import { syncYouTube } from './youtube/sync.ts';
import { readVideoCounters } from './youtube/videos.ts';

export const providers: Record<PlatformName, Provider> = {
  youtube: { ...youtubeOAuth, sync: syncYouTube, readCounters: readVideoCounters },
  instagram: { ...instagram, sync: syncInstagram, readCounters: readInstagramCounters },
  tiktok: { ...tiktok, sync: syncTikTok, readCounters: readTikTokCounters },
  twitter: { ...twitter, sync: syncTwitter, readCounters: readTwitterCounters, readAgesHours: X_READ_AGES_HOURS },
  linkedin: { ...linkedin, sync: syncLinkedIn },
  patreon: { ...patreon, sync: syncPatreon },
};
