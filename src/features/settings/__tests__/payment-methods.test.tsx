import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router-dom";
import { describe, expect, test } from "vitest";
import { CARD_NUMBER_EXPLANATION, MAX_PAYMENT_METHODS } from "@convex/lib/validation";
import { convexBackend, type TestPerson } from "@/test/convex-backend";
import { sentCalls, type SentCall } from "@/test/convex-calls";
import { readDoc } from "@/test/convex-seed";
import { SettingsPage } from "../settings-page";
import type { Settings } from "../settings-data";
import { card, signInWithSettings } from "./fixtures";

const convex = convexBackend();
let calls: SentCall[];
let maria: TestPerson;

const NEXT_YEAR = String(new Date().getUTCFullYear() + 1);

/** Maria signed in with `overrides`; resolves with the payment methods section once it shows. */
async function renderSettings(overrides: Partial<Settings> = {}) {
  maria = await signInWithSettings(convex, overrides);
  calls = sentCalls(convex.client);
  render(
    <convex.wrapper>
      <MemoryRouter initialEntries={["/dashboard/settings"]}>
        <SettingsPage />
      </MemoryRouter>
    </convex.wrapper>,
  );
  return await screen.findByRole("region", { name: "Payment methods" });
}

async function savedCards() {
  return (await readDoc(convex, maria.userId))?.paymentMethods.map((saved) => saved.last4);
}

async function openAddForm(section: HTMLElement) {
  await userEvent.click(within(section).getByRole("button", { name: "Add a card" }));
  return within(section).getByRole("form", { name: "Add a card" });
}

async function fillCard(form: HTMLElement, last4: string) {
  await userEvent.selectOptions(within(form).getByLabelText("Brand"), "mastercard");
  await userEvent.type(within(form).getByLabelText("Last 4 digits"), last4);
  await userEvent.selectOptions(within(form).getByLabelText("Expiry month"), "3");
  await userEvent.selectOptions(within(form).getByLabelText("Expiry year"), NEXT_YEAR);
}

describe("payment methods", () => {
  test("lists saved cards with brand, last 4 digits, expiry and the default", async () => {
    const section = await renderSettings({
      paymentMethods: [card("pm_1", "4242"), card("pm_2", "1881", 2020)],
      defaultPaymentMethodId: "pm_1",
    });
    const items = within(within(section).getByRole("list", { name: "Saved cards" })).getAllByRole("listitem");
    expect(items[0]).toHaveTextContent(`Visa •••• ending in 4242DefaultExpires 12/${card("", "").expYear}`);
    expect(items[1]).toHaveTextContent("Visa •••• ending in 1881Expired 12/2020");
    expect(within(items[0]).queryByRole("button", { name: /Make .* default/ })).not.toBeInTheDocument();
    expect(
      within(items[1]).getByRole("button", { name: "Make Visa ending in 1881 the default" }),
    ).toBeEnabled();
    expect(section).toHaveTextContent(`2 of ${MAX_PAYMENT_METHODS} cards saved.`);
  });

  test("a pasted full card number is refused with the explanation before anything is sent", async () => {
    const section = await renderSettings();
    const form = await openAddForm(section);
    const last4 = within(form).getByLabelText("Last 4 digits");
    await userEvent.click(last4);
    await userEvent.paste("4242 4242 4242 4242");
    // At once, while the field still has focus.
    expect(last4).toHaveAccessibleDescription(expect.stringContaining(CARD_NUMBER_EXPLANATION));
    expect(last4).toHaveAttribute("aria-invalid", "true");
    expect(within(form).getByRole("alert")).toHaveTextContent(CARD_NUMBER_EXPLANATION);
    await userEvent.click(within(form).getByRole("button", { name: "Save card" }));
    expect(calls).toEqual([]);
  });

  test.each(["4242424242424242", "4242-4242-4242-4242", "3782 822463 10005"])(
    "%s typed into the last 4 digits is refused",
    async (number) => {
      const form = await openAddForm(await renderSettings());
      await fillCard(form, number);
      await userEvent.click(within(form).getByRole("button", { name: "Save card" }));
      expect(within(form).getByLabelText("Last 4 digits")).toHaveAccessibleDescription(
        expect.stringContaining("LiveLocal never stores card numbers"),
      );
      expect(calls).toEqual([]);
    },
  );

  test("a valid card is sent as brand, last 4 digits and expiry only", async () => {
    const section = await renderSettings();
    const form = await openAddForm(section);
    await fillCard(form, "4444");
    await userEvent.click(within(form).getByRole("button", { name: "Save card" }));
    expect(calls).toEqual([
      {
        name: "settings:addPaymentMethod",
        args: { card: { brand: "mastercard", last4: "4444", expMonth: 3, expYear: Number(NEXT_YEAR) } },
      },
    ]);
    // The live region is always there, empty until the save answers: wait for its words.
    await waitFor(() =>
      expect(within(section).getByRole("status")).toHaveTextContent(
        "Saved — Mastercard ending in 4444 was added.",
      ),
    );
    expect(await savedCards()).toEqual(["4444"]);
  });

  test("other mistakes are shown when the card is saved", async () => {
    const form = await openAddForm(await renderSettings());
    await userEvent.type(within(form).getByLabelText("Last 4 digits"), "42");
    await userEvent.click(within(form).getByRole("button", { name: "Save card" }));
    expect(within(form).getByLabelText("Brand")).toHaveAccessibleDescription("Choose the card's brand.");
    expect(within(form).getByLabelText("Last 4 digits")).toHaveAccessibleDescription(
      expect.stringContaining("Enter exactly the last 4 digits of the card, like 4242."),
    );
    expect(within(form).getByLabelText("Expiry month")).toHaveAccessibleDescription(
      "Choose the expiry month.",
    );
    expect(calls).toEqual([]);
  });

  test("the server's refusal is shown in words and the form keeps its values", async () => {
    // The same card is saved already: brand, last 4 digits and expiry.
    const form = await openAddForm(
      await renderSettings({
        paymentMethods: [
          { id: "pm_1", brand: "mastercard", last4: "4444", expMonth: 3, expYear: Number(NEXT_YEAR) },
        ],
        defaultPaymentMethodId: "pm_1",
      }),
    );
    await fillCard(form, "4444");
    await userEvent.click(within(form).getByRole("checkbox", { name: "Make this my default card" }));
    await userEvent.click(within(form).getByRole("button", { name: "Save card" }));
    expect(await within(form).findByText("This card is already saved.")).toBeInTheDocument();
    expect(within(form).getByLabelText("Last 4 digits")).toHaveValue("4444");
    expect(calls[0]?.args).toMatchObject({ makeDefault: true });
  });

  test(`at ${MAX_PAYMENT_METHODS} cards, adding another is not offered and the limit is explained`, async () => {
    const cards = Array.from({ length: MAX_PAYMENT_METHODS }, (_, index) =>
      card(`pm_${index}`, `100${index}`),
    );
    const section = await renderSettings({ paymentMethods: cards, defaultPaymentMethodId: "pm_0" });
    expect(within(section).queryByRole("button", { name: "Add a card" })).not.toBeInTheDocument();
    expect(section).toHaveTextContent(
      `You have saved ${MAX_PAYMENT_METHODS} cards, the most LiveLocal keeps. Remove one to add another.`,
    );
    expect(section).toHaveTextContent(`${MAX_PAYMENT_METHODS} of ${MAX_PAYMENT_METHODS} cards saved.`);
  });

  test("removing asks first; cancelling sends nothing", async () => {
    const section = await renderSettings({
      paymentMethods: [card("pm_1", "4242"), card("pm_2", "1881")],
      defaultPaymentMethodId: "pm_1",
    });
    await userEvent.click(within(section).getByRole("button", { name: "Remove Visa ending in 4242" }));
    const dialog = screen.getByRole("alertdialog", { name: "Remove Visa ending in 4242?" });
    expect(dialog).toHaveTextContent("This is your default card; the next saved card becomes the default.");
    await userEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(calls).toEqual([]);
    await userEvent.click(within(section).getByRole("button", { name: "Remove Visa ending in 4242" }));
    await userEvent.click(screen.getByRole("button", { name: "Remove card" }));
    expect(calls).toEqual([{ name: "settings:removePaymentMethod", args: { paymentMethodId: "pm_1" } }]);
    // The live region is always there, empty until the save answers: wait for its words.
    await waitFor(() =>
      expect(within(section).getByRole("status")).toHaveTextContent(
        "Saved — Visa ending in 4242 was removed.",
      ),
    );
    expect(await savedCards()).toEqual(["1881"]);
  });

  test("make default sends the card's id", async () => {
    const section = await renderSettings({
      paymentMethods: [card("pm_1", "4242"), card("pm_2", "1881")],
      defaultPaymentMethodId: "pm_1",
    });
    await userEvent.click(
      within(section).getByRole("button", { name: "Make Visa ending in 1881 the default" }),
    );
    expect(calls).toEqual([{ name: "settings:setDefaultPaymentMethod", args: { paymentMethodId: "pm_2" } }]);
    await waitFor(async () =>
      expect((await readDoc(convex, maria.userId))?.defaultPaymentMethodId).toBe("pm_2"),
    );
  });
});
