/** Texts of the password reset, shared by the pages (browser bundle) and the service. */

/** The one answer to every reset request, whether or not the address has an account. */
export const RESET_REQUESTED =
  "If an account exists for this e-mail address, we have sent it a link to choose a new password. The link works once, for 60 minutes.";
export const RESET_LINK_INVALID = "This link is not valid any more. Ask for a new one.";
