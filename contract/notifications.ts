// Alerts (issue 15, decision 015): in-app notices (GET /api/notifications, POST /api/notifications/{id}/read) and
// which kinds the user wants (GET/PATCH /api/settings/alerts). Open to every signed-in user: an alert that a
// connection needs reconnecting matters most to someone whose subscription is in question.
import { z } from 'zod';

export const alertKinds = ['reconnect', 'topPost', 'followerMilestone'] as const;
export type AlertKind = (typeof alertKinds)[number];

export const notification = z.object({
  id: z.number().int(),
  kind: z.enum(alertKinds),
  title: z.string(),
  body: z.string(),
  /** The connection a reconnect notice is about: its button starts that connection's reconnect. */
  connectionId: z.number().int().nullable(),
  platform: z.string().nullable(),
  /** Where the notice leads: a top post alert links to the post on its platform; null for the others. */
  url: z.string().nullable(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
});
export type Notification = z.infer<typeof notification>;

/** GET /api/notifications: the newest 50, newest first, and how many of all are unread. */
export const notificationsResponse = z.object({ notifications: z.array(notification), unreadCount: z.number().int() });
export type NotificationsResponse = z.infer<typeof notificationsResponse>;

export const notificationIdParams = z.strictObject({ id: z.coerce.number().int().positive() });
/** POST /api/notifications/{id}/read: 404 for an id that is not the user's. */
export const markReadResponse = z.object({ notification, unreadCount: z.number().int() });

/** GET /api/settings/alerts: every kind is on until turned off. */
export const alertSettingsResponse = z.object({ reconnect: z.boolean(), topPost: z.boolean(), followerMilestone: z.boolean() });
export type AlertSettings = z.infer<typeof alertSettingsResponse>;
/** PATCH /api/settings/alerts: any of the kinds. */
export const alertSettingsRequest = z
  .strictObject({ reconnect: z.boolean(), topPost: z.boolean(), followerMilestone: z.boolean() })
  .partial()
  .refine((value) => Object.keys(value).length > 0, 'Say which alerts to turn on or off');
export type AlertSettingsRequest = z.infer<typeof alertSettingsRequest>;
