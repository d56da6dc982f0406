import { type Body, parseBody } from "../../lib/request-body";

/**
 * The submitted form of a page action as a plain object, read by the same
 * streaming parser as the API, with its limits on parts, fields, files and
 * name lengths (413): `request.formData()` has none. A body that is not a form
 * is a 415, a malformed one a 400 — the client's error, never a 500.
 * A repeated field gives its last value, as a form post's single fields do.
 */
export async function readForm(request: Request): Promise<Record<string, FormDataEntryValue>> {
  const { body } = await parseBody(request, ["urlencoded", "multipart"]);
  return lastValues(body);
}

/**
 * The submitted form, as readForm gives it, and the files of one list field (`images[]`,
 * SPEC §3 'Form helper rules'): an empty file input or an empty value means none.
 */
export async function readFormWithFiles(
  request: Request,
  list: string,
  /** Text list fields that go with the files (`images_alt[]`), every value in order. */
  companions: string[] = [],
): Promise<{ form: Record<string, FormDataEntryValue>; files: File[]; lists: Record<string, string[]> }> {
  const { body } = await parseBody(request, ["urlencoded", "multipart"]);
  const raw = body[list];
  const items = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  const files = items.filter((item): item is File => item instanceof File && item.size > 0);
  const lists: Record<string, string[]> = {};
  for (const name of companions) {
    const values = body[name];
    lists[name] = (Array.isArray(values) ? values : values === undefined ? [] : [values]).filter(
      (v): v is string => typeof v === "string",
    );
  }
  return { form: lastValues(body, list), files, lists };
}

/** The submitted form, as readForm gives it, and every value of the list fields named (a bulk action's checked rows). */
export async function readFormWithLists(
  request: Request,
  lists: string[],
): Promise<{ form: Record<string, FormDataEntryValue>; lists: Record<string, string[]> }> {
  const { body } = await parseBody(request, ["urlencoded", "multipart"]);
  const found: Record<string, string[]> = {};
  for (const name of lists) {
    const values = body[name];
    found[name] = (Array.isArray(values) ? values : values === undefined ? [] : [values]).filter(
      (v): v is string => typeof v === "string",
    );
  }
  return { form: lastValues(body), lists: found };
}

function lastValues(body: Body, skip?: string): Record<string, FormDataEntryValue> {
  const form: Record<string, FormDataEntryValue> = {};
  for (const [name, value] of Object.entries(body)) {
    if (name === skip) continue;
    const last = Array.isArray(value) ? value.at(-1) : value;
    if (typeof last === "string" || last instanceof File) form[name] = last;
  }
  return form;
}
