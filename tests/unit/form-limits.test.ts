import { describe, expect, it } from "vitest";
import { lengthLimit } from "../../app/lib/forms";
import { inviteSchema } from "../../core/accounts/accounts.schema";
import { profileSchema } from "../../core/accounts/profile.schema";
import { JOIN_FIELDS, JOIN_MAX_LENGTHS, joinSchema } from "../../core/join/join.schema";
import { postInputSchema } from "../../core/news/news.schema";
import { settingsUpdateSchema } from "../../core/settings/settings.schema";

/** Form fields take their maxLength from the schema that checks them on the server (issue 12). */
describe("lengthLimit", () => {
  it("reads a string field's maximum, also inside optional and preprocess wrappers", () => {
    expect(lengthLimit(postInputSchema.shape.title)).toEqual({ maxLength: 200 });
    expect(lengthLimit(joinSchema.shape.phone_number)).toEqual({ maxLength: 40 });
    expect(lengthLimit(inviteSchema.shape.first_name)).toEqual({ maxLength: 100 });
    expect(lengthLimit(settingsUpdateSchema.shape["site.name"])).toEqual({ maxLength: 120 });
    expect(lengthLimit(profileSchema.shape.phone_number)).toEqual({ maxLength: 40 });
  });

  it("gives nothing for a field without a length rule", () => {
    expect(lengthLimit(inviteSchema.shape.role)).toEqual({});
    expect(lengthLimit(undefined)).toEqual({});
  });
});

/** The footer's join form takes its limits from JOIN_MAX_LENGTHS (no Zod in the page, decision 0028). */
describe("JOIN_MAX_LENGTHS", () => {
  it("is what the join schema allows, field by field", () => {
    for (const field of JOIN_FIELDS)
      expect(lengthLimit(joinSchema.shape[field])).toEqual({ maxLength: JOIN_MAX_LENGTHS[field] });
  });
});
