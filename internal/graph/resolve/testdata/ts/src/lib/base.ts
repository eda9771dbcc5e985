export class Base {
  save(): boolean {
    return true;
  }
}
