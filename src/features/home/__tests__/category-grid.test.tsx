import { render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { expect, test } from "vitest";
import { CATEGORIES } from "@convex/lib/data/categories";
import { CategoryGrid } from "../category-grid";

test("each category tile opens explore filtered by that category", () => {
  render(<CategoryGrid />, { wrapper: MemoryRouter });
  for (const category of CATEGORIES) {
    expect(screen.getByRole("link", { name: category.label })).toHaveAttribute(
      "href",
      `/explore/streams?category=${category.id}`,
    );
  }
});
