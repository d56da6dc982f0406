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

/** Attachments a queued mail may carry: small generated files (decision 0053), not uploads. */
export const MAIL_ATTACHMENTS_MAX_CHARS = 1_000_000;

/**
 * What `NewMail.attachments` accepts, checked when the mail is queued so that a bad one fails the
 * write that queues it rather than every later send: base64 that decodes, at most one calendar
 * invitation (the part with a method, always text/calendar), and a bounded size.
 */
export const mailAttachmentsSchema = z
  .array(
    z
      .object({
        filename: z.string().regex(/^[^/\\\r\n"]{1,100}$/),
        contentType: z.string().regex(/^[\w.+-]+\/[\w.+-]+$/),
        content: z.string(),
        encoding: z.enum(["utf8", "base64"]).default("utf8"),
        method: z.enum(["REQUEST", "CANCEL", "PUBLISH"]).optional(),
      })
      .refine((a) => a.encoding !== "base64" || z.base64().safeParse(a.content).success, {
        error: "Attachment content is not base64.",
      })
      .refine((a) => !a.method || a.contentType === "text/calendar", {
        error: "Only a text/calendar part has a method.",
      }),
  )
  .refine((list) => list.filter((a) => a.method).length <= 1, {
    error: "A mail carries at most one calendar invitation.",
  })
  .refine((list) => list.reduce((sum, a) => sum + a.content.length, 0) <= MAIL_ATTACHMENTS_MAX_CHARS, {
    error: "The attachments are too large for the mail queue.",
  });
export type NewMailAttachment = z.input<typeof mailAttachmentsSchema>[number];
