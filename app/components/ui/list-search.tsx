import { Search } from "lucide-react";
import { Form, useNavigation } from "react-router";

/** An admin list's search: a plain GET form (`?search=`), so it works without JavaScript. */
export function ListSearch({ id, label, defaultValue }: { id: string; label: string; defaultValue: string }) {
  const busy = useNavigation().state !== "idle";
  return (
    <Form method="get" role="search" className="mt-6 flex max-w-md gap-2">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <input
        id={id}
        type="search"
        name="search"
        defaultValue={defaultValue}
        placeholder={label}
        className="field-input py-2"
      />
      <button type="submit" className="btn-outline" disabled={busy}>
        <Search className="h-4 w-4" aria-hidden="true" />
        Search
      </button>
    </Form>
  );
}
