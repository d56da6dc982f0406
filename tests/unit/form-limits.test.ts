import { describe, expect, it } from "vitest";
import { lengthLimit } from "../../app/lib/forms";
import { inviteSchema } from "../../core/accounts/accounts.schema";
import { profileSchema } from "../../core/accounts/profile.schema";
import { joinSchema } from "../../core/join/join.schema";
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
