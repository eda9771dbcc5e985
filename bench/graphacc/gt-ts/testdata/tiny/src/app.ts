import { Square as Box, totalArea, scale } from './shapes';
import * as shapes from './shapes';
import type { Sized } from './shapes';

export const UNIT = new Box(1);

export const render = (d: shapes.Drawable): string => d.draw();

export function report(handler: (n: number) => void, items: any[], sized: Sized): string {
  const box = new Box(3);
  handler(totalArea([box, UNIT]));
  items[0].draw();
  const helper = () => scale(sized.size());
  box['area']();
  return helper() + render(box) + box.diagonal;
}

scale(2);
