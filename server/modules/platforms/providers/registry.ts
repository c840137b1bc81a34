// Every platform's provider. A Record over PlatformName: a platform added to the contract without a provider
// here is a type error.
import type { PlatformName } from '../../../../contract/platforms.ts';
import { instagram } from './instagram.ts';
import { linkedin } from './linkedin.ts';
import { patreon } from './patreon.ts';
import type { Provider } from './provider.ts';
import { tiktok } from './tiktok.ts';
import { twitter } from './twitter.ts';
import { youtube } from './youtube.ts';

export const providers: Record<PlatformName, Provider> = { youtube, instagram, tiktok, twitter, linkedin, patreon };
