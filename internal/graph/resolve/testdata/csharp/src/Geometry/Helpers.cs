namespace Acme.Geometry;

public static class Helpers
{
    public static void Log() { }
    public static void Paint(object any) { Square.Unit(); any.Draw(); }
}
