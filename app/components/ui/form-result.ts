/**
 * What an admin screen's action answers one of its small forms: done with a message, or refused
 * with field errors and what was typed. `row` names the form it answers ("session-12", "cat-3").
 */
export type FormResult = {
  intent: string;
  row: string;
  done?: boolean;
  message?: string;
  errors?: Record<string, string[]>;
  values?: Record<string, string>;
  error?: string;
};
