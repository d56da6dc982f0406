import type { Kysely } from "kysely";
import type { Database } from "../../db/types";

/** The papers' stored files: the download route and the start-up move read them here. */
export function createLibraryRepository(db: Kysely<Database>) {
  return {
    /** A paper's file and the fields its download name is made from. */
    findPaperFile(id: number) {
      return db
        .selectFrom("papers")
        .select(["id", "name", "number", "uploaded_file"])
        .where("id", "=", id)
        .executeTakeFirst();
    },

    /** Papers' file keys after `afterId`, by id, a page at a time. */
    paperFilesAfter(afterId: number, limit: number) {
      return db
        .selectFrom("papers")
        .select(["id", "uploaded_file"])
        .where("id", ">", afterId)
        .where("uploaded_file", "is not", null)
        .orderBy("id")
        .limit(limit)
        .execute();
    },
  };
}
export type LibraryRepository = ReturnType<typeof createLibraryRepository>;
