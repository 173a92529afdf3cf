import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, test, vi } from "vitest";
import { ShareButton } from "../share-button";

const DATA = {
  title: "Sarah's Vintage",
  text: "Sarah's Vintage: denim",
  url: "https://livelocal.example/live-shop/s",
};

afterEach(() => {
  Reflect.deleteProperty(navigator, "share");
  Reflect.deleteProperty(navigator, "clipboard");
});

describe("ShareButton", () => {
  test("uses the device's share sheet where there is one, and says nothing when it is closed", async () => {
    const share = vi.fn(() => Promise.reject(new DOMException("Share canceled", "AbortError")));
    Object.defineProperty(navigator, "share", { value: share, configurable: true });
    render(<ShareButton data={DATA} />);
    await userEvent.click(screen.getByRole("button", { name: "Share" }));
    expect(share).toHaveBeenCalledWith(DATA);
    expect(screen.getByRole("status")).toBeEmptyDOMElement();
  });

  test("else copies the address and says so", async () => {
    const user = userEvent.setup();
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    render(<ShareButton data={DATA} />);
    await user.click(screen.getByRole("button", { name: "Share" }));
    expect(writeText).toHaveBeenCalledWith(DATA.url);
    expect(await screen.findByText("Copied")).toBeInTheDocument();
  });

  test("and where copying is refused, shows the address to copy by hand", async () => {
    const user = userEvent.setup();
    const writeText = vi.fn(() => Promise.reject(new Error("denied")));
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    render(<ShareButton data={DATA} />);
    await user.click(screen.getByRole("button", { name: "Share" }));
    expect(await screen.findByText(`Copy this link: ${DATA.url}`)).toBeInTheDocument();
  });
});
