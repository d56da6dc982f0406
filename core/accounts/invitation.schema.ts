/** Texts and terms of invitations, shared by the pages (browser bundle) and the service. */

export const INVITATION_DAYS = 7;
export const INVITATION_LINK_INVALID =
  "This invitation link is not valid any more. Ask the association's secretariat to send you a new one.";
export const INVITATION_ALREADY_ACCEPTED = "This user has already chosen a password: there is nothing to resend.";
export const INVITATION_FOR_DEACTIVATED = "Reactivate this user before sending a new invitation.";
