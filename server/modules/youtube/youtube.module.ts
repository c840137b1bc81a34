// The YouTube section: channel and videos, retention and traffic read on demand, insights and viral potential.
import type { FastifyInstance } from 'fastify';
import type { Infrastructure } from '../../feature-module.ts';
import type { PlatformsRepository } from '../platforms/platforms.repository.ts';
import type { TokenCustody } from '../platforms/token-custody.ts';
import { createInsightRewriter } from './insights/rewrite.ts';
import { createTrafficFetcher } from './video-traffic.ts';
import { createYoutubeRepository } from './youtube.repository.ts';
import { youtubeRoutes } from './youtube.routes.ts';
import { createRetentionFetcher, createYoutubeService, type YoutubeServiceDeps } from './youtube.service.ts';

export { trafficSourceName } from './traffic-source-names.ts';

export interface YoutubeModuleDeps {
  platformsRepository: PlatformsRepository;
  custody: TokenCustody;
  /** The user's Sync Latest Data: a stopped or backing-off sync starts afresh. */
  enqueueSync: YoutubeServiceDeps['enqueueSync'];
}

export function youtubeModule({ config, db, clock, logger }: Infrastructure, { platformsRepository, custody, enqueueSync }: YoutubeModuleDeps) {
  const youtube = createYoutubeService({
    repository: createYoutubeRepository(db),
    clock,
    enqueueSync,
    retention: createRetentionFetcher({ db, custody, platformsRepository, clock }),
    traffic: createTrafficFetcher({ db, custody, platformsRepository, clock }),
    rewrite: config.insightRewriting ? createInsightRewriter(config.insightRewriting, { logger }) : undefined,
    logger,
  });
  return { youtube, routes: (app: FastifyInstance) => youtubeRoutes(app, { youtube }) };
}
