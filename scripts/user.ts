import { parseArgs } from "node:util";
import type { RoleName } from "../core/accounts/accounts.schema";
import { generatePassword } from "../core/accounts/accounts.service";
import { loadConfig } from "../lib/env";
import { isAppError } from "../lib/errors";
import { openCliServices } from "./cli-services";

const USAGE = `Usage:
  npm run user -- add --email E --role member|editor|admin [--password P] [--first-name F --last-name L]
  npm run user -- list`;

/** `npm run user`: create and list users from the command line. */
async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      email: { type: "string" },
      role: { type: "string" },
      password: { type: "string" },
      "first-name": { type: "string" },
      "last-name": { type: "string" },
    },
    strict: true,
  });
  if (command !== "add" && command !== "list") {
    console.error(USAGE);
    return 2;
  }
  const { database, services } = await openCliServices(loadConfig());
  try {
    if (command === "list") {
      for (let page = 1; ; page += 1) {
        const result = await services.accounts.list({ search: "", page });
        if (result.total === 0) console.log("No users yet.");
        for (const u of result.data) {
          console.log(
            `${String(u.id).padStart(4)}  ${u.role.name.padEnd(6)}  ${u.status.padEnd(11)}  ${u.email}  ${`${u.first_name} ${u.last_name}`.trim()}`,
          );
        }
        if (page >= result.last_page) break;
      }
      return 0;
    }
    if (!values.email || !values.role) {
      console.error(USAGE);
      return 2;
    }
    const password = values.password ?? generatePassword();
    const user = await services.accounts.createUser({
      email: values.email,
      role: values.role as RoleName,
      password,
      first_name: values["first-name"] ?? "",
      last_name: values["last-name"] ?? "",
    });
    console.log(`Created ${user.role.name} ${user.email} (id ${user.id}).`);
    if (!values.password) console.log(`Password: ${password}`);
    return 0;
  } catch (error) {
    if (isAppError(error)) {
      const fields = Object.entries(error.details.errors ?? {}).map(
        ([field, messages]) => `  ${field}: ${messages.join(" ")}`,
      );
      console.error([error.message, ...fields].join("\n"));
      return 1;
    }
    throw error;
  } finally {
    await database.destroy();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
