import type { TooltipProps } from "@mantine/core";
import { type ComponentType, cloneElement, type ReactElement, type Ref, useRef, useState } from "react";
import { loadOnce } from "./load-once";
import { whenReleased } from "./when-released";

type RealTooltip = ComponentType<TooltipProps>;
type ChildProps = {
  ref?: Ref<HTMLElement>;
  onPointerEnter?: (event: unknown) => void;
  onFocus?: (event: unknown) => void;
};

const tooltipModule = loadOnce(() => import("./tooltip-real").then((mod) => mod.Tooltip as RealTooltip));
const loadTooltip = tooltipModule.load;

/**
 * Mantine's Tooltip, fetched the first time its target is pointed at or focused instead of in the
 * page's first load (issue 11; it brings floating-ui). Tooltips open after a delay (400 ms here), by
 * which time the code has long arrived; until then the target renders alone. The target is swapped
 * in place only while it has no keyboard focus (else at its blur), so focus never jumps.
 */
export function LazyTooltip(props: TooltipProps) {
  const [Real, setReal] = useState<RealTooltip | null>(tooltipModule.get);
  const target = useRef<HTMLElement | null>(null);
  if (Real) return <Real {...props} />;

  const child = props.children as ReactElement<ChildProps>;
  const swap = () =>
    void loadTooltip().then(() =>
      whenReleased(() => {
        if (target.current && target.current === document.activeElement) return;
        setReal(tooltipModule.get);
      }),
    );
  const childRef = child.props.ref;
  return cloneElement(child, {
    ref: (node: HTMLElement | null) => {
      target.current = node;
      if (typeof childRef === "function") childRef(node);
      else if (childRef) (childRef as { current: HTMLElement | null }).current = node;
    },
    onPointerEnter: (event: unknown) => {
      child.props.onPointerEnter?.(event);
      swap();
    },
    onFocus: (event: unknown) => {
      child.props.onFocus?.(event);
      void loadTooltip();
    },
    onBlur: () => swap(),
  } as Partial<ChildProps>);
}
