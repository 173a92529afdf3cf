import { render, screen } from "@testing-library/react";
import { expect, test, vi } from "vitest";
import { ExternalLink } from "../external-link";

test("an external link with the flag opens in a new tab without opener or referrer", () => {
  render(
    <ExternalLink href="https://www.etsy.com/shop/x" external>
      Etsy
    </ExternalLink>,
  );
  const link = screen.getByRole("link", { name: "Etsy" });
  expect(link).toHaveAttribute("href", "https://www.etsy.com/shop/x");
  expect(link).toHaveAttribute("target", "_blank");
  expect(link).toHaveAttribute("rel", "noopener noreferrer");
});

test("an external link without the flag raises an error", () => {
  vi.spyOn(console, "error").mockImplementation(() => {});
  expect(() => render(<ExternalLink href="https://www.etsy.com/shop/x">Etsy</ExternalLink>)).toThrow(
    /explicit external flag/,
  );
  vi.restoreAllMocks();
});

test("a javascript: link is refused even with the flag", () => {
  vi.spyOn(console, "error").mockImplementation(() => {});
  expect(() =>
    render(
      <ExternalLink href="javascript:alert(1)" external>
        x
      </ExternalLink>,
    ),
  ).toThrow(/only http and https/);
  vi.restoreAllMocks();
});
