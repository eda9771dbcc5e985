using System;
using Acme.Geometry;

namespace Acme.App;

public static class Program
{
    public static void Main()
    {
        var c = new Circle();
        Helpers.Log();
        Square.Unit();
        c.Only();
        Console.WriteLine("x");
    }
}
