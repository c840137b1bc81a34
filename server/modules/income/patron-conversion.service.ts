// GET /api/income/patron-conversion: reads the signed-in user's patron joins (patreon_patron_events of their own
// Patreon connections) and uploads (content_items of their own other connections), and hands them to the maths
// (patron-conversion.ts). Every row read is filtered by the user's id: no id comes from the request.
import { and, eq, gte, inArray, lt, min, ne } from 'drizzle-orm';
import { CONVERSION_BASELINE_DAYS, CONVERSION_MAX_DAYS, CONVERSION_NOTE, CONVERSION_WINDOW_DAYS, type PatronConversionResponse } from '#contract/patron-conversion.ts';
import { daysInPeriod } from '#contract/comparison.ts';
import type { Database } from '../../db/client.ts';
import { contentItems, patreonPatronEvents, platformConnections } from '../../db/schema.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { addDays, dayOf } from '../../lib/dates.ts';
import { patronConversion } from './patron-conversion.ts';
import { dailyPatronFlows } from './patron-flows.repository.ts';

export function createPatronConversionService({ db, clock }: { db: Database; clock: Clock }) {
  return {
    async conversion(userId: number, query: { startDate: string; endDate: string }): Promise<PatronConversionResponse> {
      const { startDate, endDate } = query;
      if (startDate > endDate) throw new AppError('bad_request', 'startDate must be on or before endDate');
      if (daysInPeriod(startDate, endDate) > CONVERSION_MAX_DAYS) throw new AppError('bad_request', `The period can be at most ${CONVERSION_MAX_DAYS} days`);
      const answer = { startDate, endDate, note: CONVERSION_NOTE };

      const patreon = await db
        .select({ id: platformConnections.id })
        .from(platformConnections)
        .where(and(eq(platformConnections.userId, userId), eq(platformConnections.platform, 'patreon')));
      if (patreon.length === 0) return { ...answer, patreonConnected: false, uploads: [] };
      const connectionIds = patreon.map((connection) => connection.id);

      // Uploads from the earliest baseline any upload in the period can have, to the period's end.
      const from = addDays(startDate, -(CONVERSION_BASELINE_DAYS + CONVERSION_WINDOW_DAYS));
      const uploads = await db
        .select({ contentItemId: contentItems.id, platform: platformConnections.platform, title: contentItems.title, url: contentItems.url, publishedAt: contentItems.publishedAt })
        .from(contentItems)
        .innerJoin(platformConnections, eq(platformConnections.id, contentItems.connectionId))
        .where(
          and(
            eq(platformConnections.userId, userId),
            ne(platformConnections.platform, 'patreon'),
            gte(contentItems.publishedAt, new Date(`${from}T00:00:00Z`)),
            lt(contentItems.publishedAt, new Date(`${addDays(endDate, 1)}T00:00:00Z`)),
          ),
        );
      const flows = await dailyPatronFlows(db, connectionIds, from, addDays(endDate, CONVERSION_WINDOW_DAYS));
      const joinsByDay = new Map<string, number>();
      for (const flow of flows) joinsByDay.set(flow.date, (joinsByDay.get(flow.date) ?? 0) + flow.newPatrons);
      const [first] = await db.select({ day: min(patreonPatronEvents.occurredOn) }).from(patreonPatronEvents).where(inArray(patreonPatronEvents.connectionId, connectionIds));

      const rows = patronConversion({
        joinsByDay,
        historyStart: first?.day ?? null,
        lastCompleteDay: addDays(dayOf(clock.now()), -1),
        uploads: uploads.filter((upload) => upload.publishedAt !== null).map((upload) => ({ ...upload, publishedAt: upload.publishedAt! })),
        startDate,
        endDate,
      });
      return { ...answer, patreonConnected: true, uploads: rows };
    },
  };
}

export type PatronConversionService = ReturnType<typeof createPatronConversionService>;
