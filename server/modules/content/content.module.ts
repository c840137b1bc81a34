// Posts: the content list and each post's age-matched benchmark against the creator's own posts.
import type { FastifyInstance } from 'fastify';
import type { Infrastructure } from '../../feature-module.ts';
import { createBenchmarkRepository } from './benchmark.repository.ts';
import { createBenchmarkService } from './benchmark.service.ts';
import { createContentRepository } from './content.repository.ts';
import { contentRoutes } from './content.routes.ts';
import { createContentService } from './content.service.ts';

export function contentModule({ db, clock }: Infrastructure) {
  const benchmarks = createBenchmarkService({ repository: createBenchmarkRepository(db), clock });
  const content = createContentService({ repository: createContentRepository(db), benchmarks });
  return { benchmarks, content, routes: (app: FastifyInstance) => contentRoutes(app, { benchmarks, content }) };
}
