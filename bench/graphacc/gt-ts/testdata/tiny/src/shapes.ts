/** Shapes: a tiny corpus for the TypeScript ground-truth test. */
export interface Drawable {
  draw(): string;
  readonly label: string;
}

export interface Sized extends Drawable {
  size(): number;
}

export abstract class Shape implements Drawable {
  readonly label: string = 'shape';
  abstract area(): number;
  describe(): string {
    return `${this.draw()} ${this.area()}`;
  }
  draw(): string {
    return '□';
  }
}

export class Square extends Shape implements Sized {
  constructor(
    private readonly side: number,
  ) {
    super();
  }
  area(): number {
    return this.side * this.side;
  }
  size(): number {
    return this.side;
  }
  get diagonal(): number {
    return this.side * Math.SQRT2;
  }
}

export function totalArea(shapes: Shape[]): number {
  return shapes.reduce((sum, s) => sum + s.area(), 0);
}

export function scale(n: number): number;
export function scale(n: string): string;
export function scale(n: number | string): number | string {
  return typeof n === 'number' ? n * 2 : n + n;
}
