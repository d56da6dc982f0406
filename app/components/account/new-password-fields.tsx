import { PASSWORD_MIN } from "../../../core/accounts/password.schema";
import { TextField } from "../ui/text-field";

/** A new password with the rules spelled out, and its confirmation (reset, welcome and settings pages). */
export function NewPasswordFields({
  errors,
  labels,
  names = ["password", "password_confirmation"],
}: {
  errors: Record<string, string | undefined>;
  labels: [password: string, confirmation: string];
  /** Field names (and ids): the settings page sends new_password and confirm_new_password (SPEC §7). */
  names?: [password: string, confirmation: string];
}) {
  return (
    <>
      <TextField
        id={names[0]}
        name={names[0]}
        label={labels[0]}
        type="password"
        autoComplete="new-password"
        minLength={PASSWORD_MIN}
        error={errors[names[0]]}
        hint={`At least ${PASSWORD_MIN} characters; not a common password and not your e-mail address.`}
        required
      />
      <TextField
        id={names[1]}
        name={names[1]}
        label={labels[1]}
        type="password"
        autoComplete="new-password"
        error={errors[names[1]]}
        required
      />
    </>
  );
}
