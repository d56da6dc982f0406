import { lengthLimit } from "../../lib/forms";
import { TextField } from "../ui/text-field";

/** The person an invitation is for, as every invitation schema names them (users' and representatives'). */
type PersonShape = { shape: { first_name: unknown; last_name: unknown; email: unknown } };

/**
 * First name, last name and e-mail of someone to invite (the users screen and the company screens),
 * each with its error and the length its schema allows.
 */
export function InviteFields({
  schema,
  values,
  errors,
}: {
  /** The schema that checks these fields on the server: the inputs take their limits from it. */
  schema: PersonShape;
  values: Record<string, string | undefined>;
  errors: Record<string, string | undefined>;
}) {
  return (
    <>
      <TextField
        id="invite-first-name"
        name="first_name"
        label="First name"
        autoComplete="off"
        defaultValue={values.first_name}
        error={errors.first_name}
        required
        {...lengthLimit(schema.shape.first_name)}
      />
      <TextField
        id="invite-last-name"
        name="last_name"
        label="Last name"
        autoComplete="off"
        defaultValue={values.last_name}
        error={errors.last_name}
        required
        {...lengthLimit(schema.shape.last_name)}
      />
      <TextField
        id="invite-email"
        name="email"
        label="E-mail"
        type="email"
        autoComplete="off"
        defaultValue={values.email}
        error={errors.email}
        required
        {...lengthLimit(schema.shape.email)}
      />
    </>
  );
}
