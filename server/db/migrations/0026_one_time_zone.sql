-- One time zone per account (issue 25). Reports had a zone of their own (report_preferences.time_zone, 'UTC' unless
-- chosen) beside the account's (users.time_zone, best times); the two disagreed. The account's is now the only one:
-- an account without one takes its reports' zone; an account with one keeps it (the report's stayed at what the
-- report form proposed when the account's was chosen later, and no time says which was chosen last). Retired IANA
-- names are stored under their current ones (contract/time-zones.ts LEGACY_TIME_ZONES), then the duplicate goes.
UPDATE "users" SET "time_zone" = "report_preferences"."time_zone"
	FROM "report_preferences"
	WHERE "report_preferences"."user_id" = "users"."id" AND "users"."time_zone" IS NULL;--> statement-breakpoint
UPDATE "users" SET "time_zone" = "aliases"."current"
	FROM (VALUES
	('Africa/Asmera', 'Africa/Asmara'),
	('America/Buenos_Aires', 'America/Argentina/Buenos_Aires'),
	('America/Catamarca', 'America/Argentina/Catamarca'),
	('America/Coral_Harbour', 'America/Atikokan'),
	('America/Cordoba', 'America/Argentina/Cordoba'),
	('America/Godthab', 'America/Nuuk'),
	('America/Indianapolis', 'America/Indiana/Indianapolis'),
	('America/Jujuy', 'America/Argentina/Jujuy'),
	('America/Louisville', 'America/Kentucky/Louisville'),
	('America/Mendoza', 'America/Argentina/Mendoza'),
	('Asia/Calcutta', 'Asia/Kolkata'),
	('Asia/Katmandu', 'Asia/Kathmandu'),
	('Asia/Rangoon', 'Asia/Yangon'),
	('Asia/Saigon', 'Asia/Ho_Chi_Minh'),
	('Atlantic/Faeroe', 'Atlantic/Faroe'),
	('Europe/Kiev', 'Europe/Kyiv'),
	('Pacific/Enderbury', 'Pacific/Kanton'),
	('Pacific/Ponape', 'Pacific/Pohnpei'),
	('Pacific/Truk', 'Pacific/Chuuk')
	) AS "aliases"("legacy", "current")
	WHERE "users"."time_zone" = "aliases"."legacy";--> statement-breakpoint
ALTER TABLE "report_preferences" DROP COLUMN "time_zone";
