-- Mails sent once per user and occasion (issue 25: the welcome on confirmation, the trial-started mail per
-- subscription). The row is claimed before the mail goes out; the primary key lets exactly one process claim it.
CREATE TABLE "sent_mails" (
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"ref" text DEFAULT '' NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sent_mails_user_id_kind_ref_pk" PRIMARY KEY("user_id","kind","ref")
);--> statement-breakpoint
ALTER TABLE "sent_mails" ADD CONSTRAINT "sent_mails_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
