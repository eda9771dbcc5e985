class Base:
    def save(self):
        return True


class Audited(Base):
    def audit(self):
        return self.save()
