import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { createSlots } from "../../lib/slots";
import { renderSlots } from "../../server/middleware/render-slots";

describe("slots", () => {
  it("run at most `size` tasks at once, the rest in arrival order, and pass on what each returns", async () => {
    const slots = createSlots(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const task = (n: number) => async () => {
      running += 1;
      most = Math.max(most, running);
      started.push(n);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running -= 1;
      return n * 10;
    };
    const results = Promise.all([1, 2, 3, 4, 5].map((n) => slots.run(task(n))));
    expect(slots.busy).toBe(2);
    expect(slots.waiting).toBe(3);
    expect(await results).toEqual([10, 20, 30, 40, 50]);
    expect(most).toBe(2);
    expect(started).toEqual([1, 2, 3, 4, 5]);
    expect([slots.busy, slots.waiting]).toEqual([0, 0]);
  });

  it("free the slot when a task fails", async () => {
    const slots = createSlots(1);
    const failed = slots.run(() => Promise.reject(new Error("no")));
    const next = slots.run(() => Promise.resolve("ok"));
    await expect(failed).rejects.toThrow("no");
    expect(await next).toBe("ok");
    expect(slots.busy).toBe(0);
  });
});

describe("render slots", () => {
  it("runs at most `size` handlers at once and the rest in arrival order", async () => {
    const app = new Hono();
    let running = 0;
    let most = 0;
    const started: number[] = [];
    app.use("*", renderSlots(2));
    app.get("/:n", async (c) => {
      running += 1;
      most = Math.max(most, running);
      started.push(Number(c.req.param("n")));
      await new Promise((resolve) => setTimeout(resolve, 10));
      running -= 1;
      return c.text("ok");
    });
    const answers = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => app.request(`/${n}`)));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(most).toBe(2);
    expect(started).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("frees the slot when a handler throws", async () => {
    const app = new Hono();
    app.use("*", renderSlots(1));
    app.get("/fail", () => {
      throw new Error("render failed");
    });
    app.get("/ok", (c) => c.text("ok"));
    app.onError((_error, c) => c.text("failed", 500));
    expect((await app.request("/fail")).status).toBe(500);
    expect((await app.request("/ok")).status).toBe(200);
  });
});
