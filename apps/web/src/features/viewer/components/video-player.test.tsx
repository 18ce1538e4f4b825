import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { installFakeApi } from "../../../test/fake-api";
import { renderWithApp } from "../../../test/render";
import { VideoPlayer } from "./video-player";

installFakeApi();

describe("the video player's clock (issue 35)", () => {
  it("shows the time and the length in one format: hours, minutes, seconds and frames", () => {
    renderWithApp(<VideoPlayer src="/media/clip/web.mp4" fps={25} duration={65} />);
    expect(screen.getByTestId("video-timecode").textContent).toBe("00:00:00:00 / 00:01:05:00");
  });
});
