// Exports: CSV, JSON and PDF of the analytics, the YouTube section, posts and income.
import type { FastifyInstance } from 'fastify';
import type { Infrastructure, RouteContext } from '../../feature-module.ts';
import type { AnalyticsService } from '../analytics/analytics.service.ts';
import type { ContentService } from '../content/content.service.ts';
import type { IncomeService } from '../income/income.service.ts';
import type { YoutubeService } from '../youtube/youtube.service.ts';
import { createExportsRepository } from './exports.repository.ts';
import { exportsRoutes } from './exports.routes.ts';
import { createExportsService } from './exports.service.ts';
import { createIncomeExports } from './income-export.ts';
import { createPostsExport } from './posts-export.ts';
import { createYoutubeExports } from './youtube-export.ts';

export interface ExportsModuleDeps {
  analytics: AnalyticsService;
  youtube: YoutubeService;
  content: ContentService;
  income: IncomeService;
}

export function exportsModule({ db, clock }: Infrastructure, { analytics, youtube, content, income }: ExportsModuleDeps) {
  const exportsService = createExportsService({ repository: createExportsRepository(db), analytics, clock });
  return {
    exportsService,
    routes: (app: FastifyInstance, { requireUser }: RouteContext) =>
      exportsRoutes(app, {
        requireUser,
        exports: exportsService,
        youtubeExports: createYoutubeExports({ youtube, clock }),
        postsExport: createPostsExport({ content, clock }),
        incomeExports: createIncomeExports({ income, clock }),
      }),
  };
}
