namespace Acme.Geometry
{
    public class Circle
    {
        public double Area() { return 1; }
        public void Draw() { }
        public void Only() { }
    }
}
