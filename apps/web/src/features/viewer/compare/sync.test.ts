import { describe, expect, it } from "vitest";
import { anAsset } from "../../../test/fixtures";
import { sameShape } from "./overlay-view";
import { createPlaybackLock, createZoomLock, type ZoomState } from "./sync";

describe("zoom lock (compare, issue 29)", () => {
  it("passes one side's zoom and pan to the other, and not back again", () => {
    const lock = createZoomLock();
    const seen = { a: [] as ZoomState[], b: [] as ZoomState[] };
    // Each side echoes what it is told, as the zoom component reports every transform it gets.
    const b = lock.join((s) => {
      seen.b.push(s);
      b.publish(s);
    });
    const a = lock.join((s) => {
      seen.a.push(s);
      a.publish(s);
    });
    a.publish({ scale: 2, positionX: -100, positionY: -40 });
    expect(seen.b).toEqual([{ scale: 2, positionX: -100, positionY: -40 }]);
    expect(seen.a).toEqual([]);
    // The same state again (an echo arriving late) goes nowhere; a new one from the other side does.
    b.publish({ scale: 2, positionX: -100, positionY: -40 });
    expect(seen.a).toEqual([]);
    b.publish({ scale: 3, positionX: -200, positionY: -80 });
    expect(seen.a).toEqual([{ scale: 3, positionX: -200, positionY: -80 }]);
    expect(seen.b).toHaveLength(1);
  });

  it("forgets a side that left", () => {
    const lock = createZoomLock();
    const told: ZoomState[] = [];
    const b = lock.join((s) => told.push(s));
    const a = lock.join(() => {});
    b.leave();
    a.publish({ scale: 1.5, positionX: 0, positionY: 0 });
    expect(told).toEqual([]);
  });
});

/** A <video> as the lock sees it: its time, paused flag, events, and play/pause that fire them. */
function fakeVideo(duration = 10) {
  const v = new EventTarget() as HTMLVideoElement & EventTarget;
  let time = 0;
  let paused = true;
  Object.defineProperties(v, {
    duration: { value: duration },
    paused: { get: () => paused },
    currentTime: {
      get: () => time,
      set: (t: number) => {
        time = t;
        v.dispatchEvent(new Event("seeked"));
      },
    },
  });
  v.play = async () => {
    if (!paused) return;
    paused = false;
    v.dispatchEvent(new Event("play"));
  };
  v.pause = () => {
    if (paused) return;
    paused = true;
    v.dispatchEvent(new Event("pause"));
  };
  return v;
}

describe("playback lock", () => {
  it("plays, pauses and seeks both videos together; a frame step on one lands on the other", async () => {
    const lock = createPlaybackLock();
    const a = fakeVideo(10);
    const b = fakeVideo(6);
    lock.join(a);
    lock.join(b);
    await a.play();
    expect(b.paused).toBe(false);
    a.pause();
    expect(b.paused).toBe(true);
    a.currentTime = 2.02; // one frame on
    expect(b.currentTime).toBeCloseTo(2.02, 5);
    b.currentTime = 4;
    expect(a.currentTime).toBe(4);
    // Each within its own length.
    a.currentTime = 9;
    expect(b.currentTime).toBe(6);
  });

  it("stops following once a video left", async () => {
    const lock = createPlaybackLock();
    const a = fakeVideo();
    const b = fakeVideo();
    lock.join(a);
    const leave = lock.join(b);
    leave();
    await a.play();
    expect(b.paused).toBe(true);
  });
});

describe("sameShape: overlay and difference only for two images of one shape", () => {
  it("allows 1 % apart, not more, and never without dimensions", () => {
    expect(sameShape(anAsset({ width: 2400, height: 1500 }), anAsset({ width: 1600, height: 1000 }))).toBe(true);
    expect(sameShape(anAsset({ width: 2400, height: 1500 }), anAsset({ width: 1600, height: 1013 }))).toBe(false);
    expect(sameShape(anAsset({ width: null, height: null }), anAsset())).toBe(false);
  });
});
