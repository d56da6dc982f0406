import { PASSWORD_MIN } from "../../core/accounts/password-rules";
import { TextField } from "./ui/text-field";

/** A new password with the rules spelled out, and its confirmation (reset and welcome pages). */
export function NewPasswordFields({
  errors,
  labels,
}: {
  errors: Record<string, string | undefined>;
  labels: [password: string, confirmation: string];
}) {
  return (
    <>
      <TextField
        id="password"
        name="password"
        label={labels[0]}
        type="password"
        autoComplete="new-password"
        minLength={PASSWORD_MIN}
        error={errors.password}
        hint={`At least ${PASSWORD_MIN} characters; not a common password and not your e-mail address.`}
        required
      />
      <TextField
        id="password_confirmation"
        name="password_confirmation"
        label={labels[1]}
        type="password"
        autoComplete="new-password"
        error={errors.password_confirmation}
        required
      />
    </>
  );
}
