import { z } from "zod";

export const MAIL_STATUSES = ["pending", "sending", "sent", "failed"] as const;

/** A queued mail as the join requests inbox shows it: where it went and whether it left. */
export const mailStatusSchema = z
  .object({
    id: z.number().int(),
    join_request_id: z.number().int().nullable(),
    purpose: z.string(),
    to_address: z.string(),
    status: z.enum(MAIL_STATUSES),
    attempts: z.number().int(),
    last_error: z.string().nullable(),
    sent_at: z.string().nullable(),
  })
  .meta({ id: "MailStatus" });
export type MailStatus = z.output<typeof mailStatusSchema>;
