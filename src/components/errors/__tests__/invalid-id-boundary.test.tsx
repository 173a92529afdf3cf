import { render, screen } from "@testing-library/react";
import { Component, type ReactNode } from "react";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { InvalidIdBoundary, isInvalidIdError } from "../invalid-id-boundary";

function Throws({ error }: { error: Error }): ReactNode {
  throw error;
}

class Outer extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    return this.state.failed ? <p>Route error page</p> : this.props.children;
  }
}

// React logs caught render errors; keep the test output readable.
beforeEach(() => {
  vi.spyOn(console, "error").mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe("InvalidIdBoundary", () => {
  test("recognises both backends' words for an id of the wrong shape", () => {
    expect(
      isInvalidIdError(new Error('Validator error: Expected ID for table "streams", got `garbage`')),
    ).toBe(true);
    expect(
      isInvalidIdError(
        new Error(
          'ArgumentValidationError: Value does not match validator.\nPath: .streamId\nValidator: v.id("streams")',
        ),
      ),
    ).toBe(true);
    // As the clients receive them: after Convex's request-id line.
    expect(
      isInvalidIdError(
        new Error(
          '[Request ID: 0123456789abcdef] Server Error\nArgumentValidationError: Value does not match validator.\nPath: .streamId\nValidator: v.id("streams")\n',
        ),
      ),
    ).toBe(true);
    expect(isInvalidIdError(new Error("Something else broke"))).toBe(false);
  });

  test("shows the page's own not-found view for a malformed id", () => {
    render(
      <Outer>
        <InvalidIdBoundary fallback={<p>Stream not found</p>}>
          <Throws error={new Error('Expected ID for table "streams", got `x`')} />
        </InvalidIdBoundary>
      </Outer>,
    );
    expect(screen.getByText("Stream not found")).toBeInTheDocument();
  });

  test("leaves any other failure to the route's error page", () => {
    render(
      <Outer>
        <InvalidIdBoundary fallback={<p>Stream not found</p>}>
          <Throws error={new Error("Server exploded")} />
        </InvalidIdBoundary>
      </Outer>,
    );
    expect(screen.getByText("Route error page")).toBeInTheDocument();
    expect(screen.queryByText("Stream not found")).not.toBeInTheDocument();
  });
});
