/**
 * Push devices (decision 036): the sender posts to whatever address is registered, so a deployment
 * takes https push endpoints only; the local backend also takes http (a push endpoint on this machine).
 */
import { afterEach, describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
import { insertUser } from "./model/users";
import { newTest } from "./test.setup";

const VERA = { subject: "user_vera", email: "vera@livelocal.test" };
const device = (endpoint: string) => ({
  endpoint,
  p256dh: "BPublicKeyOfTheBrowser",
  auth: "authSecret16b",
  label: "Vera's laptop",
});

async function setUp() {
  const t = newTest();
  await t.run(async (ctx) => await insertUser(ctx, { clerkId: VERA.subject, email: VERA.email }));
  return t.withIdentity(VERA);
}

describe("push.registerDevice", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  test("a deployment takes an https push endpoint and refuses any other, writing nothing", async () => {
    const vera = await setUp();
    await vera.mutation(api.push.registerDevice, device("https://push.example/abc"));
    for (const endpoint of [
      "http://127.0.0.1:3211/site/hook",
      "javascript:alert(1)",
      "ftp://push.example/x",
    ]) {
      await expect(vera.mutation(api.push.registerDevice, device(endpoint))).rejects.toMatchObject({
        data: { code: "INVALID_ARGUMENT" },
      });
    }
    expect((await vera.query(api.push.myDevices, {})).map((d) => d.endpointOrigin)).toEqual([
      "https://push.example",
    ]);
  });

  test("the local backend also takes http, for a push endpoint on this machine", async () => {
    vi.stubEnv("LIVELOCAL_LOCAL_AUTH_ISSUER", "https://auth.livelocal.localhost");
    vi.stubEnv("CLERK_JWT_ISSUER_DOMAIN", "");
    const vera = await setUp();
    await vera.mutation(api.push.registerDevice, device("http://127.0.0.1:4999/push"));
    expect((await vera.query(api.push.myDevices, {})).map((d) => d.endpointOrigin)).toEqual([
      "http://127.0.0.1:4999",
    ]);
  });
});
